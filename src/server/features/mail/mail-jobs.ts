import type { Database } from '../../db/client';
import { runDailyJobs } from './mail.service';
import type { MailSender, SenderLog } from './mail-sender';

/**
 * Starts the e-mail work of one server instance (decision 0035): the sender polls the outbox every
 * few seconds (and at once when a request wakes it), and every minute the daily digest and reminders
 * are offered to run — the day's claim in the database lets one instance run them. On the embedded
 * database this process is the only one. Answers what stops both.
 */
export function startMailJobs(options: {
  db: Database;
  sender: MailSender;
  log: SenderLog;
  pollSeconds?: number;
  now?: () => Date;
}): () => Promise<void> {
  const now = options.now ?? (() => new Date());
  const stopSender = options.sender.start((options.pollSeconds ?? 5) * 1000);
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const result = await runDailyJobs(options.db, now());
      if (result.ran) {
        options.log.info({ messages: result.messages }, 'daily digest and reminders written');
        options.sender.wake();
      }
    } catch (error) {
      options.log.error({ err: error }, 'daily digest failed');
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), 60_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await stopSender();
  };
}
