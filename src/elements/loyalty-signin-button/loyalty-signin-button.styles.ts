import { css } from 'lit';
import { primaryButton } from '../../shared/button.styles.ts';
import { themeStyles } from '../../shared/theme.styles.ts';

export const signinButtonStyles = [
  themeStyles,
  css`
    :host {
      display: inline-flex;
      /* As its reserved space is (src/reserved-space.ts), so the line it sits in keeps its height. */
      vertical-align: middle;
      flex-direction: column;
      align-items: flex-start;
      gap: calc(var(--_space) / 4);
      max-inline-size: 100%;
    }
    .row {
      display: inline-flex;
      align-items: center;
      flex-wrap: wrap;
      gap: calc(var(--_space) / 2);
    }
    [part~='button'],
    [part~='signout'] {
      ${primaryButton}
      gap: calc(var(--_space) / 2);
      padding-block: calc(var(--_space) / 2);
      padding-inline: var(--_space);
    }
    [part~='signout'] {
      background: transparent;
      color: var(--_primary);
      font-weight: 500;
    }
    [part~='button'][aria-busy='true'] {
      cursor: progress;
      opacity: 0.8;
    }
    [part~='button'][aria-disabled='true']:not([aria-busy='true']) {
      cursor: not-allowed;
      background: var(--_surface);
      color: var(--_muted);
      border-color: var(--_border);
    }
    [part~='icon'] {
      display: inline-flex;
      inline-size: 1.25em;
      block-size: 1.25em;
    }
    [part~='icon'] svg {
      inline-size: 100%;
      block-size: 100%;
    }
    [part~='user'] {
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    [part~='message'] {
      margin: 0;
      font-size: 0.875em;
      color: var(--_muted);
      max-inline-size: 40ch;
    }
    [part~='message'][role='alert'] {
      color: var(--_danger);
    }
    .spinner {
      inline-size: 1em;
      block-size: 1em;
      border: 2px solid currentColor;
      border-inline-end-color: transparent;
      border-radius: 50%;
      animation: spin 0.8s linear infinite;
    }
    :host(:dir(rtl)) .spinner {
      animation-direction: reverse;
    }
    @keyframes spin {
      to {
        transform: rotate(360deg);
      }
    }
    @media (prefers-reduced-motion: reduce) {
      .spinner {
        animation: none;
      }
    }
  `,
];
