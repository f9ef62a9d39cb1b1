// The cluster test's S3 server, as a process of its own so that the test can stop it (SIGKILL) and start it again
// on the same port: s3rver (the maintained fork @20minutes/s3rver, as in storage.test.ts) keeps the objects in
// S3_SERVER_DIR, so they are all there after the restart. Prints "s3 ready" once it listens.
import S3rver from '@20minutes/s3rver';

const port = Number(process.env.S3_SERVER_PORT);
const directory = process.env.S3_SERVER_DIR;
const bucket = process.env.S3_SERVER_BUCKET;
if (!Number.isInteger(port) || port <= 0 || !directory || !bucket) {
  console.error('usage: S3_SERVER_PORT=… S3_SERVER_DIR=… S3_SERVER_BUCKET=… node --import tsx s3-server.ts');
  process.exit(2);
}

const server = new S3rver({
  address: '127.0.0.1',
  port,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
  // Its SigV4 check refuses AWS SDK v3's path-style bucket requests (HeadBucket: the studio's storage ping).
  allowMismatchedSignatures: true,
});
await server.run();
process.stdout.write(`s3 ready on 127.0.0.1:${port}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
