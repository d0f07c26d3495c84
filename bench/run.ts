/**
 * `npm run bench`: every benchmark of the project in one run, each printing its own figures.
 * Speed is measured here, never by timed assertions in tests.
 */
import { benchProxy, printProxyFigures } from './proxy.ts';

printProxyFigures(await benchProxy());
