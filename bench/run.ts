/**
 * `npm run bench`: every benchmark of the project in one run, each printing its own figures.
 * Speed is measured here, never by timed assertions in tests.
 */
import { benchProxy, printProxyFigures } from './proxy.ts';
import { benchPage, printPageFigures } from './page.ts';
import { benchPageFill, printPageFillFigures } from './page-fill.ts';
import { benchAgainstFloor, printFloorFigures } from './floor.ts';
import { benchWordPressRoute, printWordPressRouteFigures } from './wordpress.ts';

printProxyFigures(await benchProxy());
printPageFillFigures(await benchPageFill());
printWordPressRouteFigures(await benchWordPressRoute());

// Page figures need the built script tag (npm run build).
console.log('\nPages in Chromium, built script tag, gzip, cache off, 390×844 (median of cold loads):');
printPageFigures('demo shop (every element)', await benchPage('/demo/index.html'));
printPageFigures('demo CMS page (pasted tags)', await benchPage('/demo/cms.html'));
printPageFigures('bare page, campaigns only', await benchPage('/campaigns-only.html'));
printFloorFigures(await benchAgainstFloor());
