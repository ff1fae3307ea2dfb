// The global search of the top bar: a light stand-in that loads the real search when first reached.
export { GlobalSearch } from './global-search-lazy';
