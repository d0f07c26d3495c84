/** The sandbox's markup: hono's html template, rendered to a string at once. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { html } from 'hono/html';
import { htmlText } from '../../../src/sandbox/html.ts';

describe('htmlText', () => {
  it('escapes every interpolated string, keeps nested templates and arrays of them, writes nothing for null or false', () => {
    const items = ['<b>', '"q"'].map((item) => html`<li>${item}</li>`);
    assert.equal(
      htmlText(html`<p title="${`"'&`}">${'<script>'}</p><ul>${items}</ul>${null}${false}${undefined}${7}`),
      '<p title="&quot;&#39;&amp;">&lt;script&gt;</p><ul><li>&lt;b&gt;</li><li>&quot;q&quot;</li></ul>7',
    );
  });

  it('refuses markup that would only render later, rather than writing "[object Promise]"', () => {
    assert.throws(() => htmlText(html`<p>${Promise.resolve('late')}</p>`), TypeError);
  });
});
