import { interceptCalibrator, logistic, Rng } from '../../core/packs/sdk.js';
import { CREDIT_SCORE, SCORE_POINTS_TO_DOUBLE_ODDS, SCORE_RANGE } from './products.js';

/**
 * A borrower's probability of defaulting during a loan's term: logistic in the credit score, the odds doubling
 * for every SCORE_POINTS_TO_DOUBLE_ODDS points lower, with the intercept calibrated so that the mean PD over the
 * borrowers' score distribution is the portfolio's default rate.
 */
export function probabilityOfDefault(score: number, portfolioRate: number): number {
  return logistic(interceptFor(portfolioRate) + SLOPE * (score - CREDIT_SCORE.mean));
}

/** Log-odds of default per score point: negative, since a higher score is the safer borrower. */
const SLOPE = -Math.LN2 / SCORE_POINTS_TO_DOUBLE_ODDS;

/** How many scores the calibration averages over, and the fixed stream they are drawn from. */
const CALIBRATION_SAMPLE = 8192;
const CALIBRATION_STREAM = 0x5c0e;

/** Scores drawn as the credit_score column draws them (normal, clamped, whole), as linear predictors. */
function calibrationPredictors(): Float64Array {
  const rng = new Rng(CALIBRATION_STREAM, 0);
  const predictors = new Float64Array(CALIBRATION_SAMPLE);
  for (let i = 0; i < CALIBRATION_SAMPLE; i++) {
    const score = Math.min(SCORE_RANGE[1], Math.max(SCORE_RANGE[0], rng.normal(CREDIT_SCORE.mean, CREDIT_SCORE.sd)));
    predictors[i] = SLOPE * (Math.round(score) - CREDIT_SCORE.mean);
  }
  return predictors;
}

/** The intercept per portfolio rate, calibrated once per rate a config asks for. */
const interceptFor = interceptCalibrator(calibrationPredictors());
