/** What other features use of the sign-in screens: the card the portal's sign-in also wears. */
export { AuthCard } from './auth-card';
