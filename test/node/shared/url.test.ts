/** The URL helpers every layer uses: a URL of an accepted protocol or undefined; a base without its trailing slash. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HTTP_PROTOCOLS, parseUrl, withoutTrailingSlash } from '../../../src/shared/url.ts';

describe('parseUrl', () => {
  it('returns the parsed URL when its protocol is accepted', () => {
    assert.equal(parseUrl('https://shop.example/api', HTTP_PROTOCOLS)?.href, 'https://shop.example/api');
    assert.equal(parseUrl('http://localhost:4001', HTTP_PROTOCOLS)?.origin, 'http://localhost:4001');
    assert.equal(parseUrl('rediss://cache.example:6380', ['redis:', 'rediss:'])?.port, '6380');
  });

  it('refuses every other protocol, including ones that parse fine', () => {
    for (const value of ['javascript:alert(1)', 'data:text/html,x', 'ftp://files.example/', 'blob:https://a.example/1'])
      assert.equal(parseUrl(value, HTTP_PROTOCOLS), undefined, value);
    assert.equal(parseUrl('https://shop.example', ['redis:', 'rediss:']), undefined);
    assert.equal(parseUrl('http://shop.example', ['https:']), undefined);
  });

  it('refuses what does not parse: relative paths without a base, garbage, the empty string', () => {
    for (const value of ['/api/marketing', 'shop.example', 'http://', '', 'https://exa mple.com'])
      assert.equal(parseUrl(value, HTTP_PROTOCOLS), undefined, JSON.stringify(value));
  });

  it('resolves a relative address against the base, and checks the protocol of the result', () => {
    assert.equal(
      parseUrl('/api/marketing', HTTP_PROTOCOLS, 'https://shop.example/page')?.href,
      'https://shop.example/api/marketing',
    );
    assert.equal(parseUrl('javascript:alert(1)', HTTP_PROTOCOLS, 'https://shop.example/'), undefined);
    assert.equal(parseUrl('/x', HTTP_PROTOCOLS, 'not a base'), undefined);
  });
});

describe('withoutTrailingSlash', () => {
  it('drops one trailing slash and nothing else', () => {
    assert.equal(withoutTrailingSlash('https://connect.example/'), 'https://connect.example');
    assert.equal(withoutTrailingSlash('https://connect.example/tenant/'), 'https://connect.example/tenant');
    assert.equal(withoutTrailingSlash('https://connect.example/tenant'), 'https://connect.example/tenant');
    assert.equal(withoutTrailingSlash('https://connect.example//'), 'https://connect.example/');
    assert.equal(withoutTrailingSlash(''), '');
  });
});
