import { and, eq, sql } from 'drizzle-orm';
import { mailMessages } from '../db/schema';
import { Agent, loginAs, type TestContext } from './app';

/** The link's token of the last invitation sent to `email` (read from the outbox, as the e-mail carries it). */
export async function invitationToken(ctx: TestContext, email: string): Promise<string> {
  const [row] = await ctx.db
    .select({ notices: mailMessages.notices })
    .from(mailMessages)
    .where(and(eq(mailMessages.kind, 'portalInvitation'), eq(mailMessages.toAddress, email.toLowerCase())))
    .orderBy(sql`${mailMessages.createdAt} desc`)
    .limit(1);
  const path = String((row?.notices as { path?: string }[] | undefined)?.[0]?.path ?? '');
  const token = new URL(path, 'http://x').searchParams.get('token');
  if (!token) throw new Error(`no invitation to ${email}`);
  return token;
}

export const PORTAL_PASSWORD = 'clave-del-portal-1';

/**
 * A broker user of `brokerId`, invited by an administrator, with the password set and signed in at
 * /portal: an agent carrying the portal's cookie.
 */
export async function portalAgent(
  ctx: TestContext,
  brokerId: string,
  email = `persona-${Math.random().toString(36).slice(2)}@corredora.cl`,
  admin?: Agent,
): Promise<Agent & { brokerUserId: string }> {
  const staff = admin ?? (await loginAs(ctx, { userType: 'Administrador' }));
  const invited = await staff.post(`/api/brokers/${brokerId}/portal-users`, { name: 'Paula Rojas', email });
  if (invited.statusCode !== 201) throw new Error(`invite failed: ${invited.statusCode} ${invited.body}`);
  const agent = new Agent(ctx.app);
  const set = await agent.post('/api/portal/auth/password', {
    token: await invitationToken(ctx, email),
    password: PORTAL_PASSWORD,
  });
  if (set.statusCode !== 204) throw new Error(`password failed: ${set.statusCode} ${set.body}`);
  const signedIn = await agent.post('/api/portal/auth/login', { email, password: PORTAL_PASSWORD });
  if (signedIn.statusCode !== 200)
    throw new Error(`portal login failed: ${signedIn.statusCode} ${signedIn.body}`);
  return Object.assign(agent, { brokerUserId: invited.json().user.id as string });
}
