import { useEffect, type RefObject } from 'react';

/** How near the edge of the window (or of the box) the pointer scrolls it, and how fast at the very edge. */
export const DRAG_SCROLL_EDGE_PX = 64;
const MAX_STEP_PX = 20;

/** Pixels to scroll per frame for a pointer `distance` px inside an edge: faster the nearer it is. */
const stepAt = (distance: number) =>
  distance >= DRAG_SCROLL_EDGE_PX
    ? 0
    : Math.ceil(((DRAG_SCROLL_EDGE_PX - Math.max(distance, 0)) / DRAG_SCROLL_EDGE_PX) * MAX_STEP_PX);

const canScroll = (box: HTMLElement, step: number) =>
  step > 0 ? box.scrollTop + box.clientHeight < box.scrollHeight - 1 : box.scrollTop > 0;

/**
 * While `active` (an item is being dragged), a pointer held near the top or bottom of the window scrolls the page
 * toward it, and one near the top or bottom of `boxRef` (a box with its own scroll, the week's hours) scrolls the box
 * first: a day or hour below the fold can be reached in the same drag. Browsers scroll on their own only within a
 * few pixels of the edge, and not at all under some pointers. The last position comes from `dragover`, which
 * browsers repeat while the pointer rests; leaving the window stops it.
 */
export function useDragAutoScroll(active: boolean, boxRef?: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!active) return;
    let pointer: { x: number; y: number } | null = null;
    let frame = 0;
    const onOver = (event: DragEvent) => {
      pointer = { x: event.clientX, y: event.clientY };
    };
    const onLeave = (event: DragEvent) => {
      if (!event.relatedTarget) pointer = null;
    };
    const tick = () => {
      frame = requestAnimationFrame(tick);
      if (!pointer) return;
      const { x, y } = pointer;
      const box = boxRef?.current;
      if (box && box.scrollHeight > box.clientHeight) {
        const rect = box.getBoundingClientRect();
        const top = Math.max(rect.top, 0);
        const bottom = Math.min(rect.bottom, window.innerHeight);
        if (x >= rect.left && x <= rect.right && y >= top && y <= bottom) {
          const step = stepAt(bottom - y) - stepAt(y - top);
          if (step && canScroll(box, step)) {
            box.scrollTop += step;
            return;
          }
        }
      }
      const step = stepAt(window.innerHeight - y) - stepAt(y);
      if (step) window.scrollBy(0, step);
    };
    document.addEventListener('dragover', onOver);
    document.addEventListener('dragleave', onLeave);
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('dragover', onOver);
      document.removeEventListener('dragleave', onLeave);
    };
  }, [active, boxRef]);
}
