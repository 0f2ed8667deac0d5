import { describe, expect, it } from 'vitest';
import { CreateQuickMessageSchema } from './quick-messages';

describe('quick message body', () => {
  it('takes a one-word key without a leading slash, from JSON or multipart text', () => {
    expect(CreateQuickMessageSchema.parse({ key: ' bom-dia ', message: 'Bom dia!', sendAsVoice: 'false', active: '1' })).toEqual({
      key: 'bom-dia',
      message: 'Bom dia!',
      sendAsVoice: false,
      active: true,
    });
    for (const key of ['bom dia', '/oi', '', 'x'.repeat(51)]) {
      expect(CreateQuickMessageSchema.safeParse({ key, message: 'm' }).success).toBe(false);
    }
  });
});
