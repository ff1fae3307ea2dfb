import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server inside the test process (smtp-server): what it received, parsed (mailparser),
 * and a switch that makes it refuse (451: try later; 550: never) the way a real server answers.
 */
export interface TestSmtp {
  url: string;
  received: (ParsedMail & { envelopeTo: string[] })[];
  mode: 'accept' | 'temporary-failure' | 'permanent-failure';
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const state: TestSmtp = { url: '', received: [], mode: 'accept', close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const refuse = (code: number, text: string) => {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error(text), { responseCode: code })));
      };
      if (state.mode === 'temporary-failure') return refuse(451, 'Servidor ocupado, intente más tarde');
      if (state.mode === 'permanent-failure') return refuse(550, 'Buzón inexistente');
      simpleParser(stream)
        .then((mail) => {
          state.received.push(
            Object.assign(mail, { envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address) }),
          );
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  state.url = `smtp://127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
