package io.sluice.formats.internal;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;

/**
 * A YAML parser that refuses aliases ({@code *name}): Jackson's parser gives an alias as the text
 * of its anchor's name, not as the anchored value, so a document using them would be read wrong
 * without a word. Refusing them also rules out an alias bomb.
 */
final class NoAliasParser extends JsonParserDelegate {

  private final YAMLParser yaml;

  NoAliasParser(YAMLParser yaml) {
    super(yaml);
    this.yaml = yaml;
  }

  @Override
  public JsonToken nextToken() throws IOException {
    JsonToken token = super.nextToken();
    if (token == JsonToken.VALUE_STRING && yaml.isCurrentAlias()) {
      throw new JsonParseException(
          this,
          "the alias *"
              + yaml.getText()
              + " is refused: aliases are not expanded, so write the value itself");
    }
    return token;
  }

  @Override
  public String nextTextValue() throws IOException {
    return nextToken() == JsonToken.VALUE_STRING ? getText() : null;
  }
}
