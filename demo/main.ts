// The demo pages load the widgets from source through vite; a merchant loads dist/loyalty-widgets.js.
import '../src/index.ts';
