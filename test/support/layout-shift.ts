/**
 * Chromium's own count of a page's layout shifts so far, summed as CLS sums them (no entry at all
 * within half a second is no shift): an expression to evaluate in the page. Other engines report no
 * layout-shift entries.
 */
export const CHROMIUM_LAYOUT_SHIFT = `new Promise((resolve) => {
  new PerformanceObserver((list) => {
    resolve(list.getEntries().filter((entry) => !entry.hadRecentInput).reduce((sum, entry) => sum + entry.value, 0));
  }).observe({ type: 'layout-shift', buffered: true });
  setTimeout(() => resolve(0), 500);
})`;
