import { useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { OfflineDraftMessages, type OfflineDraftNoteLine } from '@app/shared';

/**
 * The offline-draft note's line highlighted in the editor (publishing refuses a version that has it,
 * shared/src/offline-draft.ts). A textarea cannot mark part of its text, so the same text lies behind it,
 * transparent and wrapped the same way, with the note's lines marked; the textarea is see-through while
 * the note is there, and this layer follows its scrolling. For screen readers the note is the message below
 * the editor (NoteMessage), which the textarea names in its description.
 */
export function NoteHighlight({
  text,
  notes,
  textareaRef,
  readOnly,
}: {
  text: string;
  notes: readonly OfflineDraftNoteLine[];
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  readOnly: boolean;
}) {
  const layerRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const area = textareaRef.current;
    const layer = layerRef.current;
    if (!area || !layer) return;
    const follow = () => {
      layer.scrollTop = area.scrollTop;
      layer.scrollLeft = area.scrollLeft;
    };
    follow();
    area.addEventListener('scroll', follow);
    return () => area.removeEventListener('scroll', follow);
  }, [textareaRef, text]);

  const parts: ReactNode[] = [];
  let at = 0;
  for (const note of notes) {
    parts.push(text.slice(at, note.start));
    parts.push(
      <mark key={note.line} className="editor__note-mark">
        {text.slice(note.start, note.end)}
      </mark>,
    );
    at = note.end;
  }
  // A last empty line keeps the layer as tall as the textarea's scrolling (a final line break has a line there).
  parts.push(`${text.slice(at)}\n `);
  return (
    <div
      ref={layerRef}
      className={`editor__highlights${readOnly ? ' is-readonly' : ''}`}
      aria-hidden="true"
      data-testid="offline-note-highlight"
    >
      {parts}
    </div>
  );
}

/** Under the editor while its text has the note: which line, what to do, and a button that takes it out. */
export function NoteMessage({
  id,
  notes,
  onRemove,
}: {
  id: string;
  notes: readonly OfflineDraftNoteLine[];
  /** Absent while the text cannot be changed here (GPT mode, an edit under way). */
  onRemove?: () => void;
}) {
  return (
    <div id={id} className="alert alert--warning editor__note">
      <span>{OfflineDraftMessages.editorNote(notes.map((note) => note.line))}</span>
      {onRemove && (
        <button type="button" className="btn btn--secondary btn--sm editor__note-remove" onClick={onRemove}>
          Remove the note
        </button>
      )}
    </div>
  );
}
