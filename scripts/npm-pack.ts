/**
 * The tarball's file name from `npm pack --json`. npm 11 and earlier print an array with one entry
 * per packed folder; npm 12 prints an object keyed by package name. Both are read; anything else
 * (no entry, no file name, a path instead of a name) is an error naming what npm printed.
 */
export function packedFilename(stdout: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new Error(`npm pack --json printed no JSON: ${stdout.slice(0, 200)}`);
  }
  const entries: unknown[] = Array.isArray(parsed)
    ? parsed
    : parsed !== null && typeof parsed === 'object'
      ? Object.values(parsed)
      : [];
  if (entries.length !== 1)
    throw new Error(`npm pack --json named ${entries.length} packages, not 1: ${stdout.slice(0, 200)}`);
  const filename = (entries[0] as { filename?: unknown } | null)?.filename;
  if (typeof filename !== 'string' || !/^[^/\\]+\.tgz$/.test(filename))
    throw new Error(`npm pack --json gave no tarball file name: ${stdout.slice(0, 200)}`);
  return filename;
}
