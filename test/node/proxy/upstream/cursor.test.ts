/**
 * The proxy's page cursors on their own: what they seal opens to the same position, and anything
 * that is not exactly what this secret sealed for this list is refused with 400 invalid_cursor,
 * however short, long or oddly encoded its MAC or payload.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  encodingFor,
  PageCursors,
  PORTABLE_ENCODING,
  signerFor,
  type PagePosition,
} from '../../../../src/proxy/upstream/cursor.ts';
import { MAX_NEXT_TOKEN_LENGTH } from '../../../../src/proxy/upstream/operations.ts';

const SCOPE = 'campaigns\n["biz-harbor-coffee"]';
const cursors = new PageCursors('shared-secret');

const toBase64Url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const fromBase64Url = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'));

async function refuses(cursor: string, scope = SCOPE, by = cursors): Promise<void> {
  await assert.rejects(by.open(scope, cursor), (error: unknown) => {
    assert.equal((error as { status?: number }).status, 400);
    assert.equal((error as { code?: string }).code, 'invalid_cursor');
    assert.match((error as Error).message, /not issued by this proxy for this list; start again from the first page/);
    return true;
  });
}

describe('page cursors', () => {
  it('open to the position they were sealed with, for each kind of upstream token', async () => {
    const positions: PagePosition[] = [
      { token: null, limit: 10, skip: 0 },
      { token: 'eyJ2ZXJzaW9uIjoyfQ==', limit: 25, skip: 3 },
      { token: 'not base64 at all: é', limit: 1, skip: 0 },
      { token: '', limit: 7, skip: 6 },
    ];
    for (const position of positions) {
      const sealed = await cursors.seal(SCOPE, position);
      assert.match(sealed, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      assert.deepEqual(await cursors.open(SCOPE, sealed), position);
    }
  });

  it('are the same signed in Node (node:crypto) as in a runtime with Web Crypto only, so instances on both accept each other’s', async () => {
    const position: PagePosition = { token: 'eyJ2ZXJzaW9uIjoyfQ==', limit: 10, skip: 3 };
    const node = new PageCursors('shared secret');
    const web = new PageCursors('shared secret', signerFor('shared secret', null));
    const cursor = await node.seal('campaigns:{}', position);
    assert.equal(await web.seal('campaigns:{}', position), cursor);
    assert.deepEqual(await web.open('campaigns:{}', cursor), position);
    assert.deepEqual(await node.open('campaigns:{}', await web.seal('campaigns:{}', position)), position);
    await assert.rejects(new PageCursors('other', signerFor('other', null)).open('campaigns:{}', cursor), /nextToken/);
  });

  it('are written the same with node:buffer as with btoa and TextEncoder, and each opens the other’s', async () => {
    assert.notEqual(encodingFor(), PORTABLE_ENCODING, 'Node has node:buffer');
    const portable = new PageCursors('shared-secret', signerFor('shared-secret'), PORTABLE_ENCODING);
    const positions: PagePosition[] = [
      { token: null, limit: 10, skip: 0 },
      { token: 'eyJ2ZXJzaW9uIjoyfQ==', limit: 25, skip: 3 },
      // Decodes, but not back to itself (padding bits): kept as text.
      { token: 'eyJ2ZXJzaW9uIjoyfR==', limit: 25, skip: 3 },
      { token: 'not base64 at all: é ✓ 🎟', limit: 1, skip: 0 },
      { token: '/+//'.repeat(300), limit: 50, skip: 49 },
      { token: '', limit: 7, skip: 6 },
    ];
    for (const position of positions) {
      const sealed = await cursors.seal(SCOPE, position);
      assert.equal(await portable.seal(SCOPE, position), sealed);
      assert.deepEqual(await portable.open(SCOPE, sealed), position);
      assert.deepEqual(await cursors.open(SCOPE, await portable.seal(SCOPE, position)), position);
    }
  });

  it('carry a 16-byte MAC', async () => {
    const sealed = await cursors.seal(SCOPE, { token: 'abc', limit: 5, skip: 1 });
    assert.equal(fromBase64Url(sealed.split('.')[1]!).length, 16);
  });

  it('refuse a MAC that is empty, a prefix of the genuine one, or longer than it', async () => {
    const sealed = await cursors.seal(SCOPE, { token: 'forged-token', limit: 50, skip: 0 });
    const [payload, mac] = sealed.split('.') as [string, string];
    const macBytes = fromBase64Url(mac);
    await refuses(`${payload}.`);
    for (const length of [1, 8, 15]) await refuses(`${payload}.${toBase64Url(macBytes.subarray(0, length))}`);
    await refuses(`${payload}.${toBase64Url(new Uint8Array([...macBytes, 0]))}`);
    await refuses(`${payload}.${toBase64Url(new Uint8Array([...macBytes, ...macBytes]))}`);
  });

  it('refuse a made-up payload under an empty or short MAC', async () => {
    const forged = toBase64Url(new TextEncoder().encode('{"v":1,"e":"u","l":50,"s":0}\nforged-token'));
    await refuses(`${forged}.`);
    await refuses(`${forged}.AA`);
  });

  it('refuse a MAC with any single byte changed', async () => {
    const sealed = await cursors.seal(SCOPE, { token: 't', limit: 2, skip: 0 });
    const [payload, mac] = sealed.split('.') as [string, string];
    const macBytes = fromBase64Url(mac);
    for (let index = 0; index < macBytes.length; index += 1) {
      const changed = new Uint8Array(macBytes);
      changed[index]! ^= 0x01;
      await refuses(`${payload}.${toBase64Url(changed)}`);
    }
  });

  it('refuse a cursor of another list, and one sealed with another secret', async () => {
    const sealed = await cursors.seal(SCOPE, { token: 't', limit: 2, skip: 0 });
    await refuses(sealed, 'campaigns\n[]');
    await refuses(sealed, SCOPE, new PageCursors('another-secret'));
    assert.deepEqual(await new PageCursors('shared-secret').open(SCOPE, sealed), { token: 't', limit: 2, skip: 0 });
  });

  it('refuse cursors that are not two base64url parts', async () => {
    const sealed = await cursors.seal(SCOPE, { token: 't', limit: 2, skip: 0 });
    const [payload, mac] = sealed.split('.') as [string, string];
    for (const cursor of [
      '',
      '.',
      payload,
      `${payload}.${mac}.`,
      `${payload}.${mac}.${mac}`,
      `${payload}+.${mac}`,
      `${payload}.${mac}=`,
      // What a lenient base64 decoder reads as the genuine bytes: padding, white space, the other alphabet.
      `${payload}.${mac}==`,
      ` ${payload}.${mac}`,
      `${payload}.${mac}\n`,
      `${payload.slice(0, 4)}\t${payload.slice(4)}.${mac}`,
    ])
      await refuses(cursor);
    // The other alphabet: the same bytes in base64 with + and /.
    let other = { token: 't', limit: 2, skip: 0 };
    for (let skip = 0; !/[-_]/.test(await cursors.seal(SCOPE, other)); skip++) other = { ...other, skip };
    const [otherPayload, otherMac] = (await cursors.seal(SCOPE, other)).split('.') as [string, string];
    const standard = (text: string) => text.replace(/-/g, '+').replace(/_/g, '/');
    await refuses(`${standard(otherPayload)}.${standard(otherMac)}`);
  });

  it('give back the upstream token exactly, whatever base64 it looks like', async () => {
    // Padding bits that a decoder drops ("AB==" decodes as "AA==" does), padding without data, and
    // base64 of every padding kind.
    for (const token of ['AB==', 'AAB=', '--==', '==', '=', 'A', 'AA', 'AAA', 'AAAA', 'AAAAAA==', 'AAAAAAA=', 'Zm9v'])
      assert.deepEqual(await cursors.open(SCOPE, await cursors.seal(SCOPE, { token, limit: 3, skip: 1 })), {
        token,
        limit: 3,
        skip: 1,
      });
  });

  it('carry a base64 upstream token as its bytes, so one of over 6 kB fits in nextToken', async () => {
    // As text, base64 would grow by a third again and not fit: 6 668 characters of it must.
    const bytes = new Uint8Array(5000).map((_, index) => (index * 37) % 256);
    for (const tail of [0, 1, 2]) {
      const token = Buffer.from(bytes.subarray(0, bytes.length - tail)).toString('base64');
      assert.ok(token.length * (4 / 3) > MAX_NEXT_TOKEN_LENGTH, 'as text it would not fit');
      const sealed = await cursors.seal(SCOPE, { token, limit: 5, skip: 0 });
      assert.ok(sealed.length < token.length + 100, `${sealed.length} characters for ${token.length}`);
      assert.equal((await cursors.open(SCOPE, sealed)).token, token);
    }
  });

  it('refuse a genuine MAC over a header it does not accept', async () => {
    const secret = 'shared-secret';
    const sealWith = async (header: string, token = new Uint8Array()) => {
      // The cursor layout, signed as the proxy signs it, to reach the checks that follow the MAC.
      const encoder = new TextEncoder();
      const hmac = { name: 'HMAC', hash: 'SHA-256' };
      const root = await crypto.subtle.importKey('raw', encoder.encode(secret), hmac, false, ['sign']);
      const derived = await crypto.subtle.sign('HMAC', root, encoder.encode('loyalty-proxy page cursor v1'));
      const key = await crypto.subtle.importKey('raw', derived, hmac, false, ['sign']);
      const payload = new Uint8Array([...encoder.encode(`${header}\n`), ...token]);
      const mac = await crypto.subtle.sign('HMAC', key, new Uint8Array([...encoder.encode(`${SCOPE}\n`), ...payload]));
      return `${toBase64Url(payload)}.${toBase64Url(new Uint8Array(mac).subarray(0, 16))}`;
    };
    assert.deepEqual(await cursors.open(SCOPE, await sealWith('{"v":1,"l":4,"s":1}')), {
      token: null,
      limit: 4,
      skip: 1,
    });
    for (const header of ['{"v":2,"l":4,"s":1}', '{"v":1,"l":4.5,"s":1}', '{"v":1,"l":4}', '{"v":1,"s":1}', 'not json'])
      await refuses(await sealWith(header));
    // A token stored as UTF-8 that is not UTF-8.
    await refuses(await sealWith('{"v":1,"e":"u","l":4,"s":1}', new Uint8Array([0xff])));
  });

  it('refuse to seal an upstream token too long for the nextToken limit (the upstream is at fault)', async () => {
    await assert.rejects(
      cursors.seal(SCOPE, { token: 'x'.repeat(MAX_NEXT_TOKEN_LENGTH), limit: 1, skip: 0 }),
      (error: unknown) => {
        assert.equal((error as { status?: number }).status, 502);
        assert.equal((error as { code?: string }).code, 'upstream_error');
        assert.equal((error as Error).message, 'The Marketing API gave a page token too long to pass on.');
        return true;
      },
    );
  });
});
