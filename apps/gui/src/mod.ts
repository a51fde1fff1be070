/**
 * `@sagasu/gui`: the local web page of the seed's screen (issue 7). Until it
 * lands this package holds only its entry point.
 *
 * @module
 */
export {}
