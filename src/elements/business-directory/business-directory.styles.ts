import { css } from 'lit';

export const businessDirectoryStyles = css`
  :host {
    display: block;
  }
  .list {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, var(--loyalty-directory-card-min-width, 16rem)), 1fr));
    gap: var(--_space);
    margin: 0;
    padding: 0;
    list-style: none;
  }
  /* A long word (a name, an e-mail address, a property's value) breaks rather than widening the
     card past a 320px page, also under the shopper's text spacing (WCAG 1.4.10, 1.4.12). */
  .card {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr);
    overflow-wrap: anywhere;
    align-content: start;
    gap: 0.25rem calc(var(--_space) * 0.75);
    block-size: 100%;
    padding: var(--_space);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: var(--_text);
  }
  .card > :not(.logo, .name, .category) {
    grid-column: 1 / -1;
  }
  .logo {
    grid-row: span 2;
    inline-size: 3rem;
    block-size: 3rem;
    border-radius: calc(var(--_radius) / 2);
    object-fit: cover;
  }
  .name {
    margin: 0;
    font-size: 1.1em;
  }
  .category {
    margin: 0;
    color: var(--_muted);
    font-size: 0.9em;
  }
  p,
  address,
  dl {
    margin: 0;
  }
  address {
    font-style: normal;
  }
  /* A phone number or a website stands alone on its line: at least 24px each way to hit (WCAG 2.5.8). */
  a {
    display: inline-flex;
    align-items: center;
    min-block-size: 24px;
    min-inline-size: 24px;
    color: var(--_primary);
    overflow-wrap: anywhere;
  }
  /* A value that wraps below its key stays with it: the space goes between entries, not inside one. */
  .properties {
    display: grid;
    row-gap: 0.5em;
  }
  .properties div {
    display: flex;
    flex-wrap: wrap;
    column-gap: 0.5em;
  }
  dt {
    color: var(--_muted);
  }
  dd {
    margin: 0;
  }
  /* One row of cards about a real card's height, so the page below moves little when the
     businesses arrive. The same row is reserved before the element is defined
     (src/reserved-space.ts). Taking over a printed first page, the height of that page. */
  .skeleton.card-skeleton {
    block-size: 100%;
  }
  /* Only the first row shows, however many cards fit in it. */
  .list.skeletons {
    grid-template-rows: var(--_printed-size, 18rem);
    grid-auto-rows: 0;
    row-gap: 0;
    overflow: hidden;
  }
  .footer {
    display: flex;
    justify-content: center;
    margin-block-start: var(--_space);
  }
`;
