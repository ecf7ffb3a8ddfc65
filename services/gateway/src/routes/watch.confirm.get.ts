import { z } from 'zod';
import { NotFound } from '@sitelens/contracts';
import { defineRoute } from '../http/route';
import { withRedis } from '../jobs/redis-guard';
import { emailConfirmationsOf } from '../watch/email-confirmation';

const query = z.object({ token: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'is too long') });

/**
 * The link of a watch's confirmation mail (hosted mode): public, since whoever reads the mail has
 * no API key; the token (256 random bits, stored hashed) is the credential. Answers JSON.
 */
export const watchConfirmGet = defineRoute<undefined, z.infer<typeof query>>({
  method: 'get',
  paths: ['/v1/watch/confirm', '/api/v1/watch/confirm'],
  summary:
    'Confirm a watch e-mail address (the link of the confirmation mail; hosted mode). Until it is confirmed the ' +
    'address gets no watch mail. Links work 7 days; a second click answers the same.',
  tag: 'Watch',
  auth: false,
  query,
  responses: {
    200: { description: 'Address confirmed', schema: z.object({ success: z.literal(true), message: z.string(), email: z.string() }) },
  },
  async handler({ query, deps }) {
    const address = await withRedis(deps.redis, () => emailConfirmationsOf(deps).confirm(query.token));
    if (address === undefined) throw new NotFound('This confirmation link is not valid or has expired');
    return { body: { success: true, message: 'Address confirmed: watch notifications will be sent to it', email: address } };
  },
});
