import { css } from 'lit';

/**
 * The declarations of a primary button (filled with the primary colour, at least 44px high for
 * touch), shared by the sign-in button and the Marketing elements' buttons, which add their own
 * gap and padding. Used inside a rule: `.button { ${primaryButton} padding: …; }`.
 */
export const primaryButton = css`
  display: inline-flex;
  align-items: center;
  min-block-size: 2.75rem;
  border: 1px solid var(--_primary);
  border-radius: var(--_radius);
  background: var(--_primary);
  color: var(--_on-primary);
  font-weight: 600;
  cursor: pointer;
`;
