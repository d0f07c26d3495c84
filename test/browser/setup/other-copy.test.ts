/**
 * A page that already runs another version of the widgets (a theme bundles an old copy) and then
 * loads this script tag: the other copy keeps its tags, and the developer is told which versions meet.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { VERSION } from '../../../src/shared/version.ts';
import { captureWarnings } from './helpers.ts';

describe('the script tag on a page with another copy of the widgets', () => {
  it('leaves the other copy in place and warns once, naming both versions', async () => {
    class OlderDirectory extends HTMLElement {
      static version = '0.0.1-old';
    }
    customElements.define('business-directory', OlderDirectory);
    document.body.append(document.createElement('business-directory'));
    const warnings = captureWarnings();
    try {
      await import('../../../src/index.ts');
      // Another element of the taken tag, and then one of this copy's own: by the time that one is
      // defined, this copy has seen the other (both reach it through one watch of the page).
      const signin = document.createElement('loyalty-signin-button');
      document.body.append(document.createElement('business-directory'), signin);
      await customElements.whenDefined('loyalty-signin-button');
      signin.remove();
      // The warning's code loads when there is something to warn about.
      await waitUntil(() => warnings.about('<business-directory>').length > 0, 'no warning about the other copy');
    } finally {
      warnings.restore();
    }
    const about = warnings.about('<business-directory>');
    expect(about).to.have.length(1);
    expect(about[0]).to.contain('0.0.1-old').and.contain(VERSION);
    expect(customElements.get('business-directory')).to.equal(OlderDirectory);
  });
});
