import { isPlainObject } from '../json/jsonValue.js';
import { FieldError } from './field.js';
import { issueToField, pathInFile } from './format/issueToField.js';
import { normalize } from './format/normalize.js';
import { planOf } from './format/plan.js';
import { trajectoryFormat } from './format/trajectory.js';
import { undescribedTurnAgent } from './turnAgent.js';
import { TRAJECTORY_VERSION, type Trajectory } from './types.js';

/**
 * Checks a parsed document against the trajectory format and returns it typed. Fields this
 * legate does not know are accepted and left out, so files from a newer minor version still read.
 * A problem is a {@link FieldError} at the path of the field, as the file holds it.
 */
export function readTrajectory(document: unknown): Trajectory {
  // A newer major version may change anything: say so before looking at anything else.
  const version = isPlainObject(document) ? document.version : undefined;
  if (Number.isSafeInteger(version) && (version as number) > TRAJECTORY_VERSION) {
    const problem =
      `this file uses trajectory format version ${version}, ` + `and this legate reads version ${TRAJECTORY_VERSION}.`;
    throw new FieldError(['version'], `${problem} Upgrade legate to read it.`);
  }
  // The format's plan is made on the first read, not when legate is imported (planOf keeps it).
  const plan = planOf(trajectoryFormat);
  const { value: read, fits } = normalize(document, plan);
  const checked = fits ? undefined : trajectoryFormat.safeParse(read);
  if (checked !== undefined && !checked.success) {
    const problem = issueToField(checked.error.issues[0]!, read, plan);
    throw new FieldError(pathInFile(document, problem.path), problem.message);
  }
  const trajectory = read as Trajectory;
  const undescribed = undescribedTurnAgent(trajectory, 'file');
  if (undescribed !== undefined) throw new FieldError(pathInFile(document, undescribed.path), undescribed.message);
  return trajectory;
}
