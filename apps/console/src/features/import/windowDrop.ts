import { useEffect, useRef, useState } from 'react';

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Files dragged over the window outside any drop area: the browser would open the file in place of the
 * console (losing a wizard mid-upload). This stops that on every data page. With `onFiles`, a drop
 * anywhere that no drop area took is handed over instead; without it, such drops are refused.
 * Drop areas take a drop by calling `preventDefault()`, so the window sees it as handled.
 *
 * Returns whether files are being dragged over the window and would be taken (`onFiles` given), so the
 * page can highlight where they go.
 */
export function useWindowFileDrop(onFiles?: (files: File[]) => void): boolean {
  const handler = useRef(onFiles);
  handler.current = onFiles;
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    // dragenter and dragleave fire for every element crossed: count them to know when the files left.
    let depth = 0;
    const onDragEnter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth += 1;
      setDragging(true);
    };
    const onDragLeave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDragOver = (event: DragEvent) => {
      if (!carriesFiles(event) || event.defaultPrevented) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = handler.current ? 'copy' : 'none';
    };
    const onDrop = (event: DragEvent) => {
      depth = 0;
      setDragging(false);
      if (!carriesFiles(event) || event.defaultPrevented) return;
      event.preventDefault();
      const files = Array.from(event.dataTransfer?.files ?? []);
      if (files.length > 0) handler.current?.(files);
    };
    const onEnd = () => {
      depth = 0;
      setDragging(false);
    };
    window.addEventListener('dragenter', onDragEnter);
    window.addEventListener('dragleave', onDragLeave);
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    window.addEventListener('dragend', onEnd);
    return () => {
      window.removeEventListener('dragenter', onDragEnter);
      window.removeEventListener('dragleave', onDragLeave);
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
      window.removeEventListener('dragend', onEnd);
    };
  }, []);
  return dragging && onFiles !== undefined;
}
