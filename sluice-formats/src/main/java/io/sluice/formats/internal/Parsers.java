package io.sluice.formats.internal;

import com.ctc.wstx.api.WstxInputProperties;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import com.fasterxml.jackson.dataformat.xml.XmlFactory;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.sluice.formats.Format;
import io.sluice.formats.ReadConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * The parsers of one reader's configuration, one per format, each bounded by its limits: nesting
 * depth and text length for every format, no DTD (so no entity of any kind) for XML, aliases and
 * code points for YAML. Thread-safe: Jackson's mappers are, and parsers are made per document.
 */
final class Parsers {

  private final ReadConfig config;
  private final ObjectMapper json;
  private final XmlMapper xml;
  private final XMLInputFactory xmlInput;
  private final YAMLMapper yaml;
  private final CsvMapper csv;
  private final CsvSchema csvSchema;
  private final ObjectReader jsonWhole;
  private final ObjectReader xmlWhole;
  private final ObjectReader yamlWhole;
  private final ObjectReader csvWhole;
  private final ObjectReader csvRows;
  private final ObjectReader jsonElements;

  Parsers(ReadConfig config) {
    this.config = config;
    StreamReadConstraints limits =
        StreamReadConstraints.builder()
            .maxNestingDepth(config.maxDepth())
            .maxStringLength((int) Math.min(config.maxSize(), Integer.MAX_VALUE))
            .build();
    this.json =
        new ObjectMapper(JsonFactory.builder().streamReadConstraints(limits).build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    this.xmlInput = xmlInputFactory(config.maxDepth());
    this.xml =
        new XmlMapper(
            XmlFactory.builder().xmlInputFactory(xmlInput).streamReadConstraints(limits).build());
    xml.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    LoaderOptions loader = new LoaderOptions();
    loader.setNestingDepthLimit(config.maxDepth());
    loader.setCodePointLimit((int) Math.min(config.maxSize(), Integer.MAX_VALUE));
    loader.setAllowDuplicateKeys(false);
    this.yaml =
        new YAMLMapper(
            YAMLFactory.builder().loaderOptions(loader).streamReadConstraints(limits).build());
    yaml.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    this.csv = new CsvMapper(CsvFactory.builder().streamReadConstraints(limits).build());
    CsvSchema schema =
        CsvSchema.emptySchema()
            .withColumnSeparator(config.separator())
            .withQuoteChar(config.quote());
    this.csvSchema = config.header() ? schema.withHeader() : schema.withoutHeader();
    this.jsonWhole = json.readerFor(Object.class);
    this.xmlWhole = xml.readerFor(Object.class);
    this.yamlWhole = yaml.readerFor(Object.class);
    this.csvWhole = csv.readerFor(Object.class);
    this.csvRows = config.header() ? csv.readerFor(Map.class) : csv.readerFor(List.class);
    this.jsonElements =
        json.readerFor(Object.class).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  }

  /**
   * Woodstox with no DTD support and no external entities: a document with a DOCTYPE is refused
   * outright ({@link NoDoctypeReader}), so no entity is ever declared, expanded or fetched (XXE,
   * billion laughs); elements nest at most {@code maxDepth} deep.
   */
  private static XMLInputFactory xmlInputFactory(int maxDepth) {
    // Woodstox, found as the StAX service (naming its class here would have javac read the OSGi
    // annotations it carries, which are not on the class path).
    XMLInputFactory factory = XMLInputFactory.newFactory();
    if (!factory.isPropertySupported(WstxInputProperties.P_MAX_ELEMENT_DEPTH)) {
      throw new IllegalStateException(
          "the StAX parser found is " + factory.getClass().getName() + ", not Woodstox");
    }
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
    factory.setProperty(WstxInputProperties.P_MAX_ELEMENT_DEPTH, maxDepth);
    factory.setXMLResolver(
        (publicId, systemId, base, namespace) -> {
          throw new XMLStreamException("external resource '" + systemId + "' refused");
        });
    return factory;
  }

  /** A parser over {@code input} (a String, bytes or an InputStream) in {@code format}. */
  JsonParser parser(Format format, Object input) throws IOException {
    if (input instanceof byte[] bytes) {
      return switch (format) {
        case JSON -> json.createParser(bytes);
        case YAML -> new NoAliasParser((YAMLParser) yaml.createParser(bytes));
        default -> parser(format, new ByteArrayInputStream(bytes));
      };
    }
    return switch (format) {
      case JSON ->
          input instanceof String text
              ? json.createParser(text)
              : json.createParser((InputStream) input);
      case YAML ->
          new NoAliasParser(
              (YAMLParser)
                  (input instanceof String text
                      ? yaml.createParser(text)
                      : yaml.createParser((InputStream) input)));
      case CSV -> {
        CsvParser parser =
            input instanceof String text
                ? csv.getFactory().createParser(text)
                : csv.getFactory().createParser((InputStream) input);
        parser.setSchema(csvSchema);
        if (!config.header()) {
          parser.enable(CsvParser.Feature.WRAP_AS_ARRAY);
        }
        yield parser;
      }
      case XML -> xml.getFactory().createParser(xmlReader(input));
    };
  }

  private XMLStreamReader xmlReader(Object input) throws IOException {
    try {
      XMLStreamReader reader =
          input instanceof String text
              ? xmlInput.createXMLStreamReader((Reader) new StringReader(text))
              : xmlInput.createXMLStreamReader((InputStream) input);
      return new NoDoctypeReader(reader);
    } catch (XMLStreamException e) {
      throw new XmlFailure(e);
    }
  }

  /** The mapper that reads whole documents of {@code format}. */
  ObjectMapper mapper(Format format) {
    return switch (format) {
      case JSON -> json;
      case XML -> xml;
      case YAML -> yaml;
      case CSV -> csv;
    };
  }

  /**
   * The reader of whole documents of {@code format} (made once: a reader keeps its root
   * deserializer, where {@code mapper.readValue} looks it up at every call).
   */
  ObjectReader wholeReader(Format format) {
    return switch (format) {
      case JSON -> jsonWhole;
      case XML -> xmlWhole;
      case YAML -> yamlWhole;
      case CSV -> csvWhole;
    };
  }

  /**
   * The reader of one streamed value (an array's element, a CSV row), trailing content allowed;
   * made once, as the whole readers are.
   */
  ObjectReader elementReader(Format format) {
    return format == Format.CSV ? csvRows : jsonElements;
  }

  /** An XML failure before Jackson's parser exists, carrying its location. */
  static final class XmlFailure extends IOException {
    XmlFailure(XMLStreamException cause) {
      super(cause.getMessage(), cause);
    }
  }
}
