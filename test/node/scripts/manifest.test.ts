/**
 * custom-elements.json is the elements' public face for editors, CMS tools and framework wrappers:
 * the four elements and their public members, each tag mapped to its class, each event with its
 * detail type, and nothing of the code behind them (helpers, private state, base classes).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ELEMENT_TAGS } from '../../../src/shared/tags.ts';

interface Item {
  name: string;
  kind?: string;
  privacy?: string;
  static?: boolean;
  type?: { text: string };
  inheritedFrom?: unknown;
}
interface Declaration extends Item {
  tagName?: string;
  customElement?: boolean;
  members?: Item[];
  attributes?: Item[];
  events?: Item[];
}
interface Manifest {
  modules: {
    path: string;
    declarations?: Declaration[];
    exports?: { kind: string; name: string; declaration: { name: string; module?: string } }[];
  }[];
}

const manifest = JSON.parse(
  await readFile(new URL('../../../custom-elements.json', import.meta.url), 'utf8'),
) as Manifest;
const elements = manifest.modules.flatMap((module) => module.declarations ?? []);

describe('custom-elements.json', () => {
  it('documents the four elements, one module each, and nothing else', () => {
    assert.deepEqual(
      manifest.modules.map((module) => module.path).sort(),
      [...ELEMENT_TAGS.map((tag) => `src/elements/${tag}/${tag}.ts`)].sort(),
    );
    assert.deepEqual(elements.map((element) => element.tagName).sort(), [...ELEMENT_TAGS].sort());
    assert.ok(elements.every((element) => element.customElement && element.kind === 'class'));
  });

  it('maps each tag to its class in the exports', () => {
    for (const module of manifest.modules) {
      for (const element of module.declarations ?? []) {
        const definition = module.exports?.find(
          (entry) => entry.kind === 'custom-element-definition' && entry.name === element.tagName,
        );
        assert.deepEqual(definition?.declaration, { name: element.name, module: module.path }, element.tagName);
      }
    }
  });

  it('lists public members only, with what the base elements give (endpoint) on each Marketing element', () => {
    for (const element of elements) {
      for (const member of element.members ?? []) {
        assert.equal(member.privacy, undefined, `${element.tagName}: ${member.name} is ${member.privacy}`);
        assert.notEqual(member.static, true, `${element.tagName}: static ${member.name}`);
        assert.equal(member.inheritedFrom, undefined, `${element.tagName}: ${member.name} names an internal class`);
      }
    }
    for (const tag of ['campaign-carousel', 'coupon-claim', 'business-directory']) {
      const element = elements.find((candidate) => candidate.tagName === tag)!;
      assert.ok(
        element.members?.some((member) => member.name === 'endpoint'),
        `${tag} lists endpoint`,
      );
      assert.ok(
        element.attributes?.some((attribute) => attribute.name === 'endpoint'),
        `${tag} has endpoint`,
      );
    }
  });

  it('gives every event its detail type', () => {
    const events = elements.flatMap((element) => element.events ?? []);
    assert.ok(events.length >= 6, `${events.length} events`);
    for (const event of events) assert.match(event.type?.text ?? '', /^CustomEvent<\w+Detail>$/, event.name);
  });
});
