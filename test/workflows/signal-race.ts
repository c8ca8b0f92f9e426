import { defineSignal, setHandler } from '../../sdk/workflow/index.js';

export const note = defineSignal<[string]>('note');

/** Completes at once with the notes it received; a note that races the completion must not be lost. */
export async function collectNotes(): Promise<string[]> {
  const notes: string[] = [];
  setHandler(note, (text) => {
    notes.push(text);
  });
  return notes;
}
