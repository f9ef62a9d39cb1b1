import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// `npm install` on the Node the project declares must print no EBADENGINE warning: every installed
// package has to support the lowest Node version that `engines` allows.
const root = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean }>;
};

describe('engines', () => {
  it('every locked package supports the lowest declared Node version', () => {
    const lowest = semver.minVersion(root.engines.node)?.version;
    expect(lowest).toBeDefined();
    const unsupported = Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .flatMap(([name, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        if (!range || semver.satisfies(lowest as string, range, { includePrerelease: true })) return [];
        return [`${name.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${range}`];
      });
    expect(unsupported).toEqual([]);
  });
});
