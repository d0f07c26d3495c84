/** `npm run bench:page`: the page figures alone (bench/floor.ts, bench/page.ts); needs `npm run build`. */
import { benchAgainstFloor, printFloorFigures } from './floor.ts';

printFloorFigures(await benchAgainstFloor());
