import classes from './SkipLink.module.css';

/** The id of the page's main region, the target of the skip link. */
export const MAIN_CONTENT_ID = 'main-content';

/** The class the main region wears so that taking focus from the skip link draws no ring around the page. */
export const mainContentClass = classes.target;

/**
 * "Skip to content": first in the tab order, so a keyboard user reaches the page without walking through the
 * header and the navigation. Focus moves to the main region (the URL stays as it is).
 */
export function SkipLink() {
  return (
    <a
      className={classes.link}
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(MAIN_CONTENT_ID)?.focus();
      }}
    >
      Skip to content
    </a>
  );
}
