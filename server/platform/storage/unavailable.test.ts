import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import { type FakeS3, startFakeS3 } from './fake-s3.ts';
import { S3Storage } from './s3.ts';
import type { ObjectInfo, ObjectStorage } from './types.ts';
import { isStorageOutage, retryingStorage, StorageUnavailableError, storageError } from './unavailable.ts';

const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

describe('which storage failures are an outage', () => {
  it('network and disk I/O failures are; a full disk, a refusal or a missing key are not', () => {
    for (const code of [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'ENOTFOUND',
      'EAI_AGAIN',
      'EIO',
      'ESTALE',
      'EROFS',
    ]) {
      expect(isStorageOutage(errno(code)), code).toBe(true);
    }
    for (const code of ['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'ENOENT']) {
      expect(isStorageOutage(errno(code)), code).toBe(false);
    }
    // The SDK's errors: a status and a name, sometimes a cause.
    const s3 = (name: string, status: number) =>
      Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
    expect(isStorageOutage(s3('InternalError', 500))).toBe(true);
    expect(isStorageOutage(s3('SlowDown', 503))).toBe(true);
    expect(isStorageOutage(s3('Unknown', 502))).toBe(true);
    expect(isStorageOutage(Object.assign(new Error('t'), { name: 'TimeoutError' }))).toBe(true);
    expect(isStorageOutage(new Error('wrapped', { cause: errno('ECONNREFUSED') }))).toBe(true);
    expect(isStorageOutage(s3('AccessDenied', 403))).toBe(false);
    expect(isStorageOutage(s3('NotImplemented', 501))).toBe(false);
    expect(isStorageOutage(s3('NoSuchKey', 404))).toBe(false);
  });

  it('the error is the 503 the studio answers, keeping the cause; a failed upload body is not an outage', () => {
    const mapped = storageError(errno('ECONNREFUSED'));
    expect(mapped).toBeInstanceOf(StorageUnavailableError);
    expect(mapped).toMatchObject({
      status: 503,
      code: 'storage_unavailable',
      message: MESSAGES.media.storageUnavailable,
      details: { retryAfterSeconds: 5 },
      cause: { code: 'ECONNREFUSED' },
    });
    const full = errno('ENOSPC');
    expect(storageError(full)).toBe(full);
    const body = new Readable({ read() {} });
    body.on('error', () => undefined);
    body.destroy(errno('ECONNRESET'));
    const reset = errno('ECONNRESET');
    expect(storageError(reset, body)).toBe(reset);
  });
});

describe('S3 adapter during an outage', () => {
  let fake: FakeS3;
  let s3: S3Storage;
  beforeAll(async () => {
    fake = await startFakeS3('genpro-unavailable');
    s3 = new S3Storage({
      bucket: fake.bucket,
      region: 'eu-north-1',
      endpoint: fake.endpoint,
      forcePathStyle: true,
      accessKeyId: 'AKIDTEST',
      secretAccessKey: 'secret',
    });
    await s3.put('upload/2025/01/a.txt', Buffer.from('hello'), { contentType: 'text/plain', storageClass: 'upload' });
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('SlowDown and 5xx reject as unavailable, AccessDenied as itself', async () => {
    const put = () =>
      s3.put('upload/2025/01/b.txt', Buffer.from('b'), { contentType: 'text/plain', storageClass: 'upload' });
    fake.failPuts({ status: 503, code: 'SlowDown' });
    await expect(put()).rejects.toBeInstanceOf(StorageUnavailableError);
    fake.failPuts({ status: 403, code: 'AccessDenied' });
    const refused = await put().catch((error: unknown) => error);
    expect(refused).not.toBeInstanceOf(StorageUnavailableError);
    expect((refused as Error).name).toBe('AccessDenied');
    fake.failPuts(null);
  });

  it('a stopped server: every call rejects as unavailable (ping answers false); all work again once it is back', async () => {
    await fake.down();
    try {
      await expect(s3.read('upload/2025/01/a.txt')).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(s3.head('upload/2025/01/a.txt')).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(s3.delete('upload/2025/01/a.txt')).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(
        s3.put('upload/2025/01/c.txt', Buffer.from('c'), { contentType: 'text/plain', storageClass: 'upload' }),
      ).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(await s3.ping()).toBe(false);
    } finally {
      await fake.up();
    }
    expect((await s3.head('upload/2025/01/a.txt'))?.size).toBe(5);
    expect(await s3.ping()).toBe(true);
  });
});

describe('retryingStorage (a task attempt waiting an outage out)', () => {
  const info: ObjectInfo = { key: 'k', size: 1, contentType: 'text/plain', tags: {} };
  /** A storage whose puts fail as unavailable `failures` times, then succeed. */
  function flaky(failures: number) {
    let calls = 0;
    const storage: ObjectStorage = {
      kind: 's3',
      put: async () => {
        calls++;
        if (calls <= failures) throw new StorageUnavailableError(errno('ECONNREFUSED'));
        return info;
      },
      head: async () => null,
      read: async () => Readable.from([]),
      delete: async () => undefined,
      ping: async () => true,
      localPath: () => null,
    };
    return { storage, calls: () => calls };
  }
  const options = { contentType: 'text/plain', storageClass: 'upload' as const };

  it('tries again with back-off and succeeds once storage is back', async () => {
    const { storage, calls } = flaky(2);
    const waits: number[] = [];
    const retrying = retryingStorage(storage, { onRetry: (_e, ms) => waits.push(ms) });
    expect(await retrying.put('k', Buffer.from('x'), options)).toEqual(info);
    expect(calls()).toBe(3);
    expect(waits).toEqual([500, 1_000]);
  });

  it('gives up when the attempt has waited its budget, and never retries a stream body or another error', async () => {
    const { storage, calls } = flaky(100);
    const retrying = retryingStorage(storage, { budgetMs: 700 });
    await expect(retrying.put('k', Buffer.from('x'), options)).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(calls()).toBe(3); // waits 500, then the 200 left
    await expect(retrying.put('k', Buffer.from('x'), options)).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(calls()).toBe(4); // the budget is the attempt's, not the call's

    const streamed = flaky(1);
    await expect(retryingStorage(streamed.storage).put('k', Readable.from(['x']), options)).rejects.toBeInstanceOf(
      StorageUnavailableError,
    );
    expect(streamed.calls()).toBe(1);

    const refused: ObjectStorage = { ...flaky(0).storage, put: async () => Promise.reject(errno('ENOSPC')) };
    await expect(retryingStorage(refused).put('k', Buffer.from('x'), options)).rejects.toMatchObject({
      code: 'ENOSPC',
    });
  });

  it('stops waiting when the attempt is aborted', async () => {
    const { storage, calls } = flaky(100);
    const controller = new AbortController();
    const pending = retryingStorage(storage, { signal: controller.signal }).put('k', Buffer.from('x'), options);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(calls()).toBe(1);
  });
});
