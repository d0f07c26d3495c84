/**
 * This copy's version, as in package.json (a browser test keeps the two equal). Elements carry it
 * as `static version`, so a page that loads two different copies can say which is which.
 */
export const VERSION = '0.1.0';
