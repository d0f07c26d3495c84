/**
 * Geometry of the carousel's scrolling track in the reading direction, so the element works the
 * same left to right and right to left. Offsets are measured from the track's start edge.
 */

/** How far a box starts from the track's start edge (negative: scrolled past). */
function startOffset(box: DOMRect, track: DOMRect, rtl: boolean): number {
  return rtl ? track.right - box.right : box.left - track.left;
}

/** The index of the slide nearest to the track's start edge. */
export function nearestSlide(slides: HTMLElement[], track: DOMRect, rtl: boolean): number {
  let nearest = 0;
  let best = Number.POSITIVE_INFINITY;
  slides.forEach((slide, index) => {
    const distance = Math.abs(startOffset(slide.getBoundingClientRect(), track, rtl));
    if (distance < best) [nearest, best] = [index, distance];
  });
  return nearest;
}

/** Whether a slide is entirely inside the track. */
export function fullyInView(slide: HTMLElement, track: DOMRect, rtl: boolean): boolean {
  return startOffset(slide.getBoundingClientRect(), track, rtl) + slide.offsetWidth <= track.width + 1;
}

/**
 * The first and last index of the slides entirely inside the track ([0, -1] for none): a slide cut off
 * at either edge is not among them, so keyboard focus never lands where the shopper sees only part of it.
 */
export function shownSlides(slides: HTMLElement[], track: DOMRect): [number, number] {
  const shown = slides.flatMap((slide, index) => {
    const box = slide.getBoundingClientRect();
    return box.left >= track.left - 1 && box.right <= track.right + 1 ? [index] : [];
  });
  return [shown[0] ?? 0, shown.at(-1) ?? -1];
}

/**
 * Scrolls the track so that the slide starts at its start edge; native scroll snapping does the rest.
 * Returns the `scrollLeft` the track is headed for (a smooth scroll gets there later). The position
 * is absolute: WebKit adds a `scrollBy()` to one still running, overshooting on quick presses.
 */
export function scrollToSlide(scroller: HTMLElement, slide: HTMLElement, rtl: boolean): number {
  const distance = startOffset(slide.getBoundingClientRect(), scroller.getBoundingClientRect(), rtl);
  const max = scroller.scrollWidth - scroller.clientWidth;
  const wanted = scroller.scrollLeft + (rtl ? -distance : distance);
  const destination = rtl ? Math.min(0, Math.max(-max, wanted)) : Math.max(0, Math.min(max, wanted));
  scroller.scrollTo({ left: destination });
  return destination;
}
