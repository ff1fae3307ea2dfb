import { z } from 'zod';
import { ACTION_NAMES, type Action, USER_TYPES } from '../permissions';
import { closed, requiredEmail, requiredText } from './common';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** A password is never shown nor written anywhere: any character is the user's. */
export const newPassword = closed(z.string({ error: 'La contraseña es obligatoria' }), 'contraseña')
  .min(PASSWORD_MIN, { error: `La contraseña debe tener al menos ${PASSWORD_MIN} caracteres` })
  .max(PASSWORD_MAX, { error: `La contraseña no puede superar los ${PASSWORD_MAX} caracteres` });

export const loginBody = z.strictObject({
  email: requiredEmail('Ingrese un correo electrónico válido'),
  password: closed(z.string({ error: 'La contraseña es obligatoria' }), 'contraseña')
    .min(1, { error: 'La contraseña es obligatoria' })
    .max(PASSWORD_MAX, {
      error: `La contraseña no puede superar los ${PASSWORD_MAX} caracteres`,
    }),
});
export type LoginBody = z.infer<typeof loginBody>;

export const registerBody = z.strictObject({
  firstName: requiredText('Los nombres son obligatorios', 100),
  lastName: requiredText('Los apellidos son obligatorios', 100),
  position: requiredText('El cargo es obligatorio', 100),
  email: requiredEmail('Ingrese un correo electrónico válido'),
  password: newPassword,
});
export type RegisterBody = z.infer<typeof registerBody>;

/** The signed-in user as the client sees it (never the hash or the token). */
export const sessionUser = z.object({
  id: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  position: z.string(),
  userType: z.enum(USER_TYPES),
  isSeller: z.boolean(),
  avatarUrl: z.string().nullable(),
  /** The actions this user holds now (the catalogue after the office's grants): menus and buttons render from it. */
  actions: z.array(z.enum(ACTION_NAMES as [Action, ...Action[]])),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const userResponse = z.object({ user: sessionUser });
