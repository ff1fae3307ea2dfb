import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { profiles } from '../../db/schema';
import { Agent, loginAs, useTestApp } from '../../test/app';
import { createUser } from '../../test/builders';

describe('GET /api/users/options', () => {
  const ctx = useTestApp();

  it('lists the active users for pickers, to any signed-in user, without a session nothing', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM', firstName: 'Karla' });
    const gone = await createUser(ctx.db, { firstName: 'Zoe' });
    await ctx.db.update(profiles).set({ isActive: false }).where(eq(profiles.id, gone.id));
    await createUser(ctx.db, { firstName: 'Berta', userType: 'Operaciones' });
    const response = await kam.get('/api/users/options');
    expect(response.statusCode).toBe(200);
    const names = response.json().users.map((user: { firstName: string }) => user.firstName);
    expect(names).toEqual(['Berta', 'Karla']);
    expect(Object.keys(response.json().users[0]).sort()).toEqual(
      ['avatarUrl', 'firstName', 'id', 'lastName', 'position', 'userType'].sort(),
    );
    expect((await new Agent(ctx.app).get('/api/users/options')).statusCode).toBe(401);
  });
});
