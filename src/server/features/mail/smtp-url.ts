/** Is SMTP_URL a URL nodemailer can use? (smtp: or smtps:, with a host). Checked at start (env.ts). */
export function isValidSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
