/** Watch e-mails over SMTP (nodemailer), only when SMTP_URL is configured. */
import { createTransport, type Transporter } from 'nodemailer';
import type { Config } from '@sitelens/config';

export interface WatchMail {
  to: string;
  subject: string;
  text: string;
}

export interface WatchMailer {
  send(mail: WatchMail): Promise<void>;
}

export function createWatchMailer(smtp: Config['smtp']): WatchMailer | undefined {
  if (!smtp.url) return undefined;
  // Not pooled: each e-mail opens and closes its own connection, so nothing is left to close.
  const transport: Transporter = createTransport({
    url: smtp.url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
