/**
 * How many levels of arrays and objects, one inside another, a tool's input may have; the
 * input object itself is the first. A schema may not describe more, so a value its schema
 * accepts is never refused for its depth. Deeper input is refused (`too_deep`) before anything
 * else looks at it: real tool inputs nest a handful of levels, and a model that sends
 * thousands is told so rather than taking the run down with a stack overflow.
 */
export const MAX_INPUT_DEPTH = 64;
