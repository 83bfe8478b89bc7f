extension StreamingJSONEncoder {
    /// ``StreamingJSONEncoder``'s object: each member's key, then its value, written at once.
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: StreamingJSONEncoder
        /// How deep the object is (its place on the encoder's stack, plus one).
        let depth: Int

        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.null() }
        mutating func encode(_ value: Bool, forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.boolean(value) }
        mutating func encode(_ value: String, forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.string(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { self.encoder.key(key, at: self.depth); try self.encoder.floatingPoint(value) }
        mutating func encode(_ value: Float, forKey key: Key) throws { self.encoder.key(key, at: self.depth); try self.encoder.floatingPoint(value) }
        mutating func encode(_ value: Int, forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.integer(value) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.integer(value) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.integer(value) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.integer(value) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.integer(value) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.integer(value) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.integer(value) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.integer(value) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.integer(value) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { self.encoder.key(key, at: self.depth); self.encoder.integer(value) }

        mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
            self.encoder.key(key, at: self.depth)
            try self.encoder.write(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            self.encoder.key(key, at: self.depth)
            return self.encoder.container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            self.encoder.key(key, at: self.depth)
            return self.encoder.unkeyedContainer()
        }

        /// The encoder, writing into the slot of `super`'s key.
        mutating func superEncoder() -> any Encoder {
            self.encoder.nextElement(at: self.depth)
            self.encoder.string("super")
            self.encoder.bytes.append(UInt8(ascii: ":"))
            return self.encoder
        }

        /// The encoder, writing into the slot of `key`.
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            self.encoder.key(key, at: self.depth)
            return self.encoder
        }
    }

    /// ``StreamingJSONEncoder``'s array: each element written at once, after a comma from the second on.
    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: StreamingJSONEncoder
        /// How deep the array is (its place on the encoder's stack, plus one).
        let depth: Int
        private(set) var count = 0

        init(encoder: StreamingJSONEncoder, depth: Int) {
            self.encoder = encoder
            self.depth = depth
        }

        var codingPath: [any CodingKey] { [] }

        private mutating func next() {
            self.encoder.nextElement(at: self.depth)
            self.count += 1
        }

        mutating func encodeNil() throws { self.next(); self.encoder.null() }
        mutating func encode(_ value: Bool) throws { self.next(); self.encoder.boolean(value) }
        mutating func encode(_ value: String) throws { self.next(); self.encoder.string(value) }
        mutating func encode(_ value: Double) throws { self.next(); try self.encoder.floatingPoint(value) }
        mutating func encode(_ value: Float) throws { self.next(); try self.encoder.floatingPoint(value) }
        mutating func encode(_ value: Int) throws { self.next(); self.encoder.integer(value) }
        mutating func encode(_ value: Int8) throws { self.next(); self.encoder.integer(value) }
        mutating func encode(_ value: Int16) throws { self.next(); self.encoder.integer(value) }
        mutating func encode(_ value: Int32) throws { self.next(); self.encoder.integer(value) }
        mutating func encode(_ value: Int64) throws { self.next(); self.encoder.integer(value) }
        mutating func encode(_ value: UInt) throws { self.next(); self.encoder.integer(value) }
        mutating func encode(_ value: UInt8) throws { self.next(); self.encoder.integer(value) }
        mutating func encode(_ value: UInt16) throws { self.next(); self.encoder.integer(value) }
        mutating func encode(_ value: UInt32) throws { self.next(); self.encoder.integer(value) }
        mutating func encode(_ value: UInt64) throws { self.next(); self.encoder.integer(value) }

        mutating func encode<Value: Encodable>(_ value: Value) throws {
            self.next()
            try self.encoder.write(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            self.next()
            return self.encoder.container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            self.next()
            return self.encoder.unkeyedContainer()
        }

        /// The encoder, writing into the next element's slot.
        mutating func superEncoder() -> any Encoder {
            self.next()
            return self.encoder
        }
    }

    /// ``StreamingJSONEncoder``'s one value, written into the slot its container is in.
    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: StreamingJSONEncoder
        /// The depth of the container whose slot this is.
        let depth: Int

        var codingPath: [any CodingKey] { [] }

        /// Closes whatever was opened in the slot's container since (nothing, when used as meant).
        private func slot() {
            self.encoder.close(deeperThan: self.depth)
        }

        mutating func encodeNil() throws { self.slot(); self.encoder.null() }
        mutating func encode(_ value: Bool) throws { self.slot(); self.encoder.boolean(value) }
        mutating func encode(_ value: String) throws { self.slot(); self.encoder.string(value) }
        mutating func encode(_ value: Double) throws { self.slot(); try self.encoder.floatingPoint(value) }
        mutating func encode(_ value: Float) throws { self.slot(); try self.encoder.floatingPoint(value) }
        mutating func encode(_ value: Int) throws { self.slot(); self.encoder.integer(value) }
        mutating func encode(_ value: Int8) throws { self.slot(); self.encoder.integer(value) }
        mutating func encode(_ value: Int16) throws { self.slot(); self.encoder.integer(value) }
        mutating func encode(_ value: Int32) throws { self.slot(); self.encoder.integer(value) }
        mutating func encode(_ value: Int64) throws { self.slot(); self.encoder.integer(value) }
        mutating func encode(_ value: UInt) throws { self.slot(); self.encoder.integer(value) }
        mutating func encode(_ value: UInt8) throws { self.slot(); self.encoder.integer(value) }
        mutating func encode(_ value: UInt16) throws { self.slot(); self.encoder.integer(value) }
        mutating func encode(_ value: UInt32) throws { self.slot(); self.encoder.integer(value) }
        mutating func encode(_ value: UInt64) throws { self.slot(); self.encoder.integer(value) }

        mutating func encode<Value: Encodable>(_ value: Value) throws {
            self.slot()
            try self.encoder.write(value)
        }
    }
}
