// The standalone sign-in callback page, for merchants who register a dedicated redirect URI.
import '../src/connect/callback-page.ts';
