// The load-once getter shared by the Settings panel's sections that load their own state (daily requests, spending
// cap, spending history, digest, kept spreadsheets): each is one element kept across the panel's re-renders, shown
// loading and filled from the server the first time the panel shows it, and read again (`reload`) when the document
// changed elsewhere.
import { errorText } from '../bridge';

type Loading<T> = {
  /** Asks the server for the section's state. */
  load: () => Promise<T>;
  /** Draws the section: null while loading or when it could not be read. */
  render: (state: T | null) => void;
  /** Draws the section with the reason its state could not be read. */
  failed: (problem: string) => void;
};

/** A section's getter, and its reload (after a change elsewhere; nothing before the section was first shown). */
export type SelfLoadingSection = (() => HTMLElement) & { reload: () => Promise<void> };

/** The section's getter: the first call renders it loading and loads its state once; every call returns it. */
export function selfLoadingSection<T>(section: HTMLElement, { load, render, failed }: Loading<T>): SelfLoadingSection {
  let loaded = false;
  const getter = () => {
    if (!loaded) {
      loaded = true;
      render(null);
      load().then(
        (state) => render(state),
        (error) => failed(errorText(error)),
      );
    }
    return section;
  };
  const reload = async () => {
    if (!loaded) return;
    try {
      render(await load());
    } catch {
      // The section keeps what it showed; the next change reads it again.
    }
  };
  return Object.assign(getter, { reload });
}
