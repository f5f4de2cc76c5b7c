import fc from 'fast-check';

// Property tests draw the same cases on every run, so a failure in CI reproduces exactly on any machine (the
// suite is deterministic). FC_SEED=<whole number> explores other cases; a property that sets its own seed keeps it.
const given = process.env.FC_SEED;
const seed = given === undefined || given === '' ? 20_261_130 : Number(given);
if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be a whole number, but it was '${given}'.`);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
