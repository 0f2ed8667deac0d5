import { describe, expect, it } from 'vitest';
import { ChannelBirthdaySchema, ChannelFarewellSchema, UpcomingBirthdaysQuerySchema } from './birthdays';
import { RatingFiltersSchema, RatingListQuerySchema } from './ratings';

const pathsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('channel birthday and farewell schemas', () => {
  it('reads the form’s hour text and trims the message; empty means none', () => {
    expect(ChannelBirthdaySchema.parse({ birthdayMessage: '  Parabéns!  ', birthdayHour: '9' })).toEqual({
      birthdayMessage: 'Parabéns!',
      birthdayHour: 9,
    });
    expect(ChannelBirthdaySchema.parse({ birthdayMessage: '', birthdayHour: '' })).toEqual({
      birthdayMessage: null,
      birthdayHour: null,
    });
    expect(ChannelFarewellSchema.parse({ farewellMessage: '   ' })).toEqual({ farewellMessage: null });
  });

  it('refuses a message without an hour and hours outside 0-23', () => {
    expect(pathsOf(ChannelBirthdaySchema.safeParse({ birthdayMessage: 'Oi', birthdayHour: '' }))).toEqual([
      'birthdayHour: Hora do envio é obrigatório',
    ]);
    for (const hour of [24, -1, 1.5, 'x']) {
      expect(pathsOf(ChannelBirthdaySchema.safeParse({ birthdayMessage: 'Oi', birthdayHour: hour }))).toEqual([
        'birthdayHour: deve ser uma hora cheia de 0 a 23',
      ]);
    }
  });

  it('upcoming query: defaults and bounds', () => {
    expect(UpcomingBirthdaysQuerySchema.parse({})).toEqual({ days: 30, pageNumber: 1, pageSize: 20 });
    expect(UpcomingBirthdaysQuerySchema.safeParse({ days: '367' }).success).toBe(false);
  });
});

describe('ratings filters', () => {
  it('reads dd/MM/yyyy days, id lists and scores in their query spellings', () => {
    expect(
      RatingListQuerySchema.parse({ startDate: '01/03/2026', endDate: '2026-03-31', 'queuesIds[]': ['1', '2'], ratings: '0,5' }),
    ).toEqual({
      startDate: '2026-03-01',
      endDate: '2026-03-31',
      queuesIds: [1, 2],
      ratings: [0, 5],
      pageNumber: 1,
      pageSize: 20,
    });
    expect(
      RatingFiltersSchema.parse({ startDate: '01/03/2026', endDate: '31/03/2026', queuesIds: [], usersIds: [3], ratings: [] }),
    ).toEqual({ startDate: '2026-03-01', endDate: '2026-03-31', queuesIds: [], usersIds: [3], ratings: [] });
  });

  it('answers the spec’s texts for bad days and scores', () => {
    expect(pathsOf(RatingFiltersSchema.safeParse({ startDate: '30/02/2026', endDate: '' }))).toEqual([
      'startDate: Data inválida',
      'endDate: Data final é obrigatório',
    ]);
    expect(pathsOf(RatingFiltersSchema.safeParse({ startDate: '02/03/2026', endDate: '01/03/2026' }))).toEqual([
      'endDate: A data final deve ser igual ou posterior à data inicial',
    ]);
    expect(pathsOf(RatingFiltersSchema.safeParse({ startDate: '01/03/2026', endDate: '01/03/2026', ratings: [6] }))).toEqual([
      'ratings.0: avaliação de 0 a 5',
    ]);
  });
});
