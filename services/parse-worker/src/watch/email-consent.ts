/**
 * Hosted mode: a watch's `notify_email` gets watch mail only once the address is confirmed. Until
 * then the address gets one mail: the confirmation request with its link (see
 * `EmailConfirmations` for who may send it when). Local mode mails as it always did.
 */
import { errorMessage, type WatchRecord } from '@sitelens/contracts';
import type { EmailConfirmations } from '@sitelens/watch';
import type { Logger } from '@sitelens/telemetry';
import type { WatchMailer } from './mailer';

export interface EmailConsentDeps {
  confirmations: EmailConfirmations;
  mailer?: WatchMailer;
  logger: Logger;
}

function confirmationText(watch: WatchRecord, link: string): string {
  return [
    `Someone asked for notifications about changes to ${watch.url} to be sent to this address.`,
    '',
    `To receive them, confirm the address by opening this link (valid 7 days):`,
    link,
    '',
    'If you did not ask for this, ignore this mail: nothing else will be sent to you.',
  ].join('\n');
}

/** Whether watch mail may go to the watch's address; sends the confirmation request when due. */
export async function mayMailWatchAddress(watch: WatchRecord, deps: EmailConsentDeps): Promise<boolean> {
  const address = watch.notify_email;
  if (!address || watch.owner === undefined) return true;
  if (await deps.confirmations.isConfirmed(watch.owner, address)) return true;
  if (!deps.mailer) return false;
  const claimed = await deps.confirmations.claim(watch.owner, address);
  if (claimed) {
    try {
      await deps.mailer.send({
        to: address,
        subject: '[Sitelens] Confirm watch notifications',
        text: confirmationText(watch, claimed.link),
      });
      deps.logger.info({ watchId: watch.id }, 'watch e-mail confirmation sent');
    } catch (error) {
      deps.logger.warn({ err: errorMessage(error) }, 'watch e-mail confirmation not sent');
      await claimed.release().catch(() => undefined);
    }
  }
  return false;
}
