import type { ResponseConfig, ResponseErrorsConfig, ResponsePresetName } from '../../config/sources/responseSchema.js';
import { envelopePreset } from './envelopePreset.js';
import { etherscanPreset } from './etherscanPreset.js';
import { lastfmPreset } from './lastfmPreset.js';
import { plainPreset } from './plainPreset.js';
import { shapeFrom, type ResponsePreset, type ResponseShape } from './responseShape.js';

/** Each `response.preset` by name: a new one is a file and a line here (and its name in responseSchema). */
const responsePresets: Readonly<Record<ResponsePresetName, ResponsePreset>> = {
  envelope: envelopePreset,
  etherscan: etherscanPreset,
  lastfm: lastfmPreset,
  plain: plainPreset,
};

/** The shape a source's responses are read with: its preset, with its own fields over it. */
export function responseShapeOf(response: ResponseConfig, errors: ResponseErrorsConfig): ResponseShape {
  return shapeFrom(responsePresets[response.preset], response, errors);
}
