/**
 * The font families the layout tests run under, so what they check holds in whatever font a
 * merchant's page uses: a wide one and a narrow one, both from Debian (.ci/run installs them).
 * Nothing is bundled; a family that is not installed fails the tests that use it.
 */
export const FONT_FAMILIES = [
  { family: 'DejaVu Sans', debianPackage: 'fonts-dejavu-core', width: 'wide' },
  { family: 'Liberation Sans', debianPackage: 'fonts-liberation', width: 'narrow' },
] as const;

export type FontFamily = (typeof FONT_FAMILIES)[number];
