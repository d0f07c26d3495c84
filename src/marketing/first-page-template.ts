/**
 * The first page's markup as data: one description that the proxy's renderer
 * (./first-page-markup.ts), the browser's printer of preloaded first pages (src/first-page.ts) and the
 * WordPress plugin's PHP renderer all walk, so they cannot print different HTML for the same answer.
 * Kept to what a second language can interpret in a few lines:
 *
 * - `{ el, attrs?, children? }`: an element. `el` is a tag name, or `{ field }` for a heading level the
 *   display model chose (`h1`…`h6`). `attrs` in the order written; a `{ field }` value that is empty or
 *   absent leaves its attribute out. `img` and `br` are void: no children, no end tag.
 * - `{ text: field }`: the field's text, escaped.
 * - `{ each: field, children }`: the children once per entry of a list, each entry's fields first.
 * - `{ when: field, children }` / `{ unless: field, children }`: the children when the field is (is
 *   not) a non-empty string, `true` or a non-empty list.
 *
 * Fields are looked up in the innermost entry first, then outwards to the display model
 * (./first-page-display.ts).
 */

export interface FieldRef {
  field: string;
}

export type MarkupNode =
  | { el: string | FieldRef; attrs?: Record<string, string | FieldRef>; children?: MarkupNode[] }
  | { text: string }
  | { each: string; children: MarkupNode[] }
  | { when: string; children: MarkupNode[] }
  | { unless: string; children: MarkupNode[] };

const field = (name: string): FieldRef => ({ field: name });

/** A campaign image at the widths the proxy asked for, sized as the elements size it; the first eager. */
const IMAGE: MarkupNode = {
  when: 'src',
  children: [
    {
      el: 'img',
      attrs: {
        src: field('src'),
        srcset: field('srcset'),
        sizes: field('sizes'),
        width: '1600',
        height: '900',
        alt: '',
        loading: field('loading'),
        decoding: 'async',
      },
    },
  ],
};

const paragraph = (name: string): MarkupNode => ({
  when: name,
  children: [{ el: 'p', attrs: { 'data-field': name }, children: [{ text: name }] }],
});

const heading = (name: string): MarkupNode => ({
  el: field('heading'),
  attrs: { 'data-field': name },
  children: [{ text: name }],
});

/** A carousel's first page: one list item per campaign. */
export const CAROUSEL_FIRST_PAGE: MarkupNode[] = [
  {
    el: 'ul',
    children: [
      {
        each: 'items',
        children: [
          {
            el: 'li',
            children: [IMAGE, heading('title'), paragraph('subtitle'), paragraph('description'), paragraph('price')],
          },
        ],
      },
    ],
  },
];

/** A coupon's first page: its campaign, with no image. */
export const COUPON_FIRST_PAGE: MarkupNode[] = [heading('title'), paragraph('subtitle'), paragraph('price')];

/** A directory's first page: one card per business, and the room of its button for a next page. */
export const DIRECTORY_FIRST_PAGE: MarkupNode[] = [
  {
    el: 'ul',
    children: [
      {
        each: 'items',
        children: [
          {
            el: 'li',
            children: [
              {
                when: 'logo',
                children: [
                  {
                    el: 'img',
                    attrs: {
                      src: field('logo'),
                      alt: '',
                      width: '48',
                      height: '48',
                      loading: 'lazy',
                      decoding: 'async',
                      referrerpolicy: 'no-referrer',
                    },
                  },
                ],
              },
              heading('name'),
              paragraph('category'),
              paragraph('description'),
              {
                when: 'address',
                children: [
                  {
                    el: 'address',
                    children: [
                      { text: 'street' },
                      { when: 'twoLines', children: [{ el: 'br' }] },
                      { text: 'locality' },
                    ],
                  },
                ],
              },
              {
                when: 'phone',
                children: [
                  {
                    el: 'p',
                    attrs: { 'data-field': 'phone' },
                    children: [
                      {
                        when: 'tel',
                        children: [{ el: 'a', attrs: { href: field('tel') }, children: [{ text: 'phone' }] }],
                      },
                      { unless: 'tel', children: [{ text: 'phone' }] },
                    ],
                  },
                ],
              },
              {
                when: 'website',
                children: [
                  {
                    el: 'p',
                    attrs: { 'data-field': 'website' },
                    children: [
                      {
                        el: 'a',
                        attrs: { href: field('website'), rel: 'noopener noreferrer' },
                        children: [{ text: 'host' }],
                      },
                    ],
                  },
                ],
              },
              {
                when: 'properties',
                children: [
                  {
                    el: 'dl',
                    children: [
                      {
                        each: 'properties',
                        children: [
                          {
                            el: 'div',
                            children: [
                              { el: 'dt', children: [{ text: 'label' }] },
                              { el: 'dd', children: [{ text: 'value' }] },
                            ],
                          },
                        ],
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
  // Where the element shows its button for the next page: the stylesheet holds the button's room.
  { when: 'more', children: [{ el: 'div', attrs: { 'data-field': 'more' } }] },
];

/** The markup of each widget's first page, by tag; a widget without one is not here. */
export const FIRST_PAGE_TEMPLATES: Readonly<Record<string, MarkupNode[]>> = {
  'campaign-carousel': CAROUSEL_FIRST_PAGE,
  'coupon-claim': COUPON_FIRST_PAGE,
  'business-directory': DIRECTORY_FIRST_PAGE,
};
