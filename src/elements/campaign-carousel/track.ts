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

/** Scrolls the track so that the slide starts at its start edge; native scroll snapping does the rest. */
export function scrollToSlide(scroller: HTMLElement, slide: HTMLElement, rtl: boolean): void {
  const distance = startOffset(slide.getBoundingClientRect(), scroller.getBoundingClientRect(), rtl);
  scroller.scrollBy({ left: rtl ? -distance : distance });
}
