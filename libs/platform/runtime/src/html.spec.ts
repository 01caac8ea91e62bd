import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { escapeHtml, html } from './html';

describe('html templates', () => {
  test('every interpolated value is escaped, text and attributes alike', () => {
    const name = `<script>alert("x")</script> & 'co'`;
    assert.equal(
      html`<p title="${name}">${name}</p>`.value,
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</p>',
    );
    assert.equal(escapeHtml('a"b'), 'a&quot;b');
  });

  test('nested templates and lists are kept as markup; empty values render nothing', () => {
    const items = ['<a>', 'b'].map((x) => html`<li>${x}</li>`);
    assert.equal(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.value, '<ul><li>&lt;a&gt;</li><li>b</li></ul>0');
  });
});
