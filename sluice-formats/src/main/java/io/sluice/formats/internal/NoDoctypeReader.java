package io.sluice.formats.internal;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.util.StreamReaderDelegate;

/**
 * A StAX reader that refuses a document type declaration when it meets one: what a DTD could do
 * (declare entities that expand exponentially or read files and URLs) is never needed to read data.
 */
final class NoDoctypeReader extends StreamReaderDelegate {

  NoDoctypeReader(XMLStreamReader reader) {
    super(reader);
  }

  @Override
  public int next() throws XMLStreamException {
    int event = super.next();
    if (event == XMLStreamConstants.DTD) {
      throw new XMLStreamException(
          "a DOCTYPE is refused: DTDs and entities are never read", getLocation());
    }
    if (event == XMLStreamConstants.ENTITY_REFERENCE) {
      throw new XMLStreamException(
          "the entity reference &" + getLocalName() + "; is refused: no entity is declared",
          getLocation());
    }
    return event;
  }

  @Override
  public int nextTag() throws XMLStreamException {
    int event = next();
    while (event == XMLStreamConstants.CHARACTERS && isWhiteSpace()
        || event == XMLStreamConstants.SPACE
        || event == XMLStreamConstants.COMMENT
        || event == XMLStreamConstants.PROCESSING_INSTRUCTION) {
      event = next();
    }
    if (event != XMLStreamConstants.START_ELEMENT && event != XMLStreamConstants.END_ELEMENT) {
      throw new XMLStreamException("expected an element", getLocation());
    }
    return event;
  }
}
