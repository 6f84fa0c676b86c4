import { expect, test } from './test-type';
import { checkItem6 } from '../../lib/rules/wordcloud';
import { context, failingKeys, row, step } from './builders';

test.describe('item 6 · word cloud (spec 7.7)', () => {
  test('7.7.1: three word sets 7.7.1, 7.7.3, 7.7.4, one aggregate cloud whatever the platform option', () => {
    const result = checkItem6(context());
    expect(result.steps.map((s) => `${s.id} ${s.name}`)).toEqual([
      '7.7.1 all words',
      '7.7.3 positive words',
      '7.7.4 negative words',
    ]);
    expect(result.verdict).toBe('pass');
    expect(result.notes.join('\n')).toContain('same words for all seven platform options (7.7.1)');
  });

  test('7.7.2: headings 「AI 回答关键词」 = 「AI 认知词云」 and 「AI 回答正面关键词」 = 「正面词」 are stated as equivalent', () => {
    const notes = checkItem6(context()).notes.join('\n');
    expect(notes).toContain('「AI 回答关键词」 = 「AI 认知词云」');
    expect(notes).toContain('「AI 回答正面关键词」 = 「正面词」');
  });

  test('7.7.3: weight, size and order are not compared (the base platform cloud has other weights and order)', () => {
    const result = checkItem6(
      context({ edit: (d) => d.brand.wordcloud.words.forEach((w) => (w.weight = 100)) }),
    );
    expect(row(result, '7.7.1', 'words matched')).toMatchObject({
      html: '3 of 3',
      platform: '3 of 3',
      verdict: 'pass',
    });
  });

  test('7.7.1: a word missing on the platform fails naming the side; an extra platform word fails too', () => {
    const result = checkItem6(
      context({
        edit: (_, p) => {
          p.wordcloud.words = p.wordcloud.words.filter((w) => w.word !== '价格');
          p.wordcloud.words.push({ word: '包装', weight: 1 });
        },
      }),
    );
    expect(row(result, '7.7.1', 'word 「价格」')).toMatchObject({
      html: '价格',
      platform: null,
      verdict: 'fail',
      note: 'missing on the platform side',
    });
    expect(row(result, '7.7.1', 'word 「包装」')).toMatchObject({
      html: null,
      platform: '包装',
      verdict: 'fail',
      note: 'missing on the HTML side',
    });
    expect(row(result, '7.7.1', 'words matched')).toMatchObject({ html: '2 of 3', platform: '2 of 3' });
    expect(result.verdict).toBe('fail');
  });

  test('7.7.1 with no word in common: every row is a missing word naming its side, and no "words matched" row reports 0 of them as a pass', () => {
    const result = checkItem6(
      context({ edit: (_, p) => (p.wordcloud.positive = [{ word: '包装', weight: 1 }]) }),
    );
    expect(step(result, '7.7.3').rows.map((r) => `${r.key}: ${r.verdict}`)).toEqual([
      'positive word 「品质」: fail',
      'positive word 「口感」: fail',
      'positive word 「包装」: fail',
    ]);
  });

  test('7.7.2 / 7.7.4: both negative lists empty pass: 「未监测到负面词」 = 「中正面率100%,暂无负面词」', () => {
    const negative = step(checkItem6(context()), '7.7.4');
    expect(negative.verdict).toBe('pass');
    expect(negative.rows[0]!.note).toContain('「未监测到负面词」 = platform 「中正面率100%,暂无负面词」');
  });

  test('7.7.4: when negative words exist they are compared; one side empty and the other not fails', () => {
    const oneSided = checkItem6(
      context({ edit: (_, p) => (p.wordcloud.negative = [{ word: '太贵', weight: 1 }]) }),
    );
    expect(failingKeys(oneSided, '7.7.4')).toEqual(['negative word 「太贵」']);
    const same = checkItem6(
      context({
        edit: (d, p) => {
          d.brand.wordcloud.negative = [{ word: '太贵' }];
          p.wordcloud.negative = [{ word: '太贵', weight: 4 }];
        },
      }),
    );
    expect(step(same, '7.7.4').verdict).toBe('pass');
  });

  test('7.7.3: the positive-word image is compared by words: a different positive word fails', () => {
    const result = checkItem6(
      context({ edit: (_, p) => (p.wordcloud.positive = [{ word: '品质' }, { word: '新鲜' }]) }),
    );
    expect(failingKeys(result, '7.7.3')).toEqual(['positive word 「口感」', 'positive word 「新鲜」']);
  });

  test('a word differing only by a character is a different word', () => {
    const result = checkItem6(context({ edit: (_, p) => (p.wordcloud.words[0]!.word = '价钱') }));
    expect(step(result, '7.7.1').verdict).toBe('fail');
  });
});
