/** The limits of the trajectory format, in one place (docs/trajectory-format.md states them). */

/** Files larger than this are refused before they are parsed. */
export const MAX_TRAJECTORY_BYTES = 16 * 1024 * 1024;

/**
 * How deep a file's YAML may nest, counted from the top of the document. Both readers hold
 * this depth with room to spare; a deeper file is refused with the line and column where it
 * goes too deep.
 */
export const MAX_DOCUMENT_DEPTH = 200;

/**
 * How deep the writer's reader (`readWrittenYaml`) follows a file before it declines it to the
 * careful reader: deeper than any file the writer writes (its free values stop at
 * {@link MAX_YAML_VALUE_DEPTH} levels), well inside {@link MAX_DOCUMENT_DEPTH}.
 */
export const MAX_WRITTEN_DEPTH = 150;

/**
 * How deep a free value (a tool's input, a server block, citations, the run's input blocks,
 * result blocks) is written as YAML. A value that nests deeper (a model can send any JSON) is
 * written as JSON text in the field of the same name with `Json` appended (`inputJson`), which
 * reads back as the same value at any depth; so a finished run always saves and replays.
 * Levels are counted as the binder counts a tool's input (`pathBeyondDepth`: every array and
 * object is a level, the value itself the first), and the limit is the binder's, so every input
 * a tool accepts is written as YAML.
 */
export const MAX_YAML_VALUE_DEPTH = 64;
