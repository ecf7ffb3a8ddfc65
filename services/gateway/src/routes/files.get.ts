import { z } from 'zod';
import { AppError, NotFound } from '@sitelens/contracts';
import { FS_FILE_ROUTE, FsBlobStore } from '@sitelens/storage';
import { defineRoute } from '../http/route';

const query = z.object({ expires: z.string().optional(), signature: z.string().optional() });

/** Serves fs-driver blobs behind their HMAC signature; the S3 driver hands out S3 URLs instead. */
export const filesGet = defineRoute<undefined, z.infer<typeof query>, { key: string[] }>({
  method: 'get',
  paths: [`${FS_FILE_ROUTE}/*key`],
  summary: 'Download a stored image through a signed, expiring URL (filesystem storage driver)',
  tag: 'Screenshots',
  auth: false,
  query,
  async handler({ req, res, query, deps }) {
    if (!(deps.store instanceof FsBlobStore)) throw new NotFound('No such file');
    const key = (req.params as { key?: string[] }).key?.join('/') ?? '';
    const opened = await deps.store.openSigned(key, query.expires, query.signature);
    if (!opened.ok) {
      if (opened.reason === 'expired')
        throw new AppError('URL_EXPIRED', 'This signed URL has expired; request the job again for a fresh one');
      if (opened.reason === 'signature') throw new AppError('SIGNATURE_INVALID', 'The URL signature is invalid');
      throw new NotFound('The file no longer exists');
    }
    res.status(200);
    res.setHeader('Content-Type', opened.file.contentType);
    if (opened.file.size !== undefined) res.setHeader('Content-Length', String(opened.file.size));
    res.setHeader('Cache-Control', 'private, max-age=900');
    await new Promise<void>((resolve, reject) => {
      opened.file.body.on('error', reject).on('end', resolve).pipe(res);
    });
    return undefined;
  },
});
