/**
 * `npm run bench`: every benchmark of the project in one run, each printing its own figures.
 * Speed is measured here, never by timed assertions in tests.
 */
import { benchProxy, printProxyFigures } from './proxy.ts';
import { benchPage, printPageFigures } from './page.ts';

printProxyFigures(await benchProxy());

// Page figures need the built script tag (npm run build).
console.log('\nPages in Chromium, the built script tag on a static page (median of cold loads):');
printPageFigures('campaigns only (390×844)', await benchPage('/campaigns-only.html'));
printPageFigures('campaigns, directory, sign-in (390×844)', await benchPage('/plain.html'));
