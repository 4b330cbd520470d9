import { useEffect, useRef } from 'react';

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Files dragged over the window outside any drop area: the browser would open the file in place of the
 * console (losing a wizard mid-upload). This stops that on every data page. With `onFiles`, a drop
 * anywhere that no drop area took is handed over instead; without it, such drops are refused.
 * Drop areas take a drop by calling `preventDefault()`, so the window sees it as handled.
 */
export function useWindowFileDrop(onFiles?: (files: File[]) => void) {
  const handler = useRef(onFiles);
  handler.current = onFiles;
  useEffect(() => {
    const onDragOver = (event: DragEvent) => {
      if (!carriesFiles(event) || event.defaultPrevented) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = handler.current ? 'copy' : 'none';
    };
    const onDrop = (event: DragEvent) => {
      if (!carriesFiles(event) || event.defaultPrevented) return;
      event.preventDefault();
      const files = Array.from(event.dataTransfer?.files ?? []);
      if (files.length > 0) handler.current?.(files);
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, []);
}
